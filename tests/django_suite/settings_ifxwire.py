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
    # text_field_bytes: lookup's tests store 4001 characters in a TextField (written for
    # Oracle's 4000-byte NVARCHAR2); the default LVARCHAR(4000) refuses them (DataError), so
    # the run sizes TextField as a project with such texts would (docs/DJANGO.md).
    "OPTIONS": {"client_locale": "en_US.utf8", "db_locale": "en_US.utf8",
                "text_field_bytes": 8000},
}

DATABASES = {
    "default": {**_SERVER, "NAME": "django_default"},
    "other": {**_SERVER, "NAME": "django_other"},
}

SECRET_KEY = "django_tests_secret_key"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = False
