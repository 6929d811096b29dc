"""Settings for Django's own test suite (runtests.py --settings) against ifxwire-server.

The server address comes from IFXWIRE_DJANGO_HOST/IFXWIRE_DJANGO_PORT (run.py starts a
server and sets them); the test databases are created WITH LOG by the backend.
"""

import os

_SERVER = {
    "ENGINE": "ifxwire.django",
    "HOST": os.environ.get("IFXWIRE_DJANGO_HOST", "127.0.0.1"),
    "PORT": os.environ.get("IFXWIRE_DJANGO_PORT", "9088"),
    "USER": "informix",
    "PASSWORD": "in4mix",
    "OPTIONS": {"client_locale": "en_US.utf8", "db_locale": "en_US.utf8"},
}

DATABASES = {
    "default": {**_SERVER, "NAME": "django_default"},
    "other": {**_SERVER, "NAME": "django_other"},
}

SECRET_KEY = "django_tests_secret_key"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = False
