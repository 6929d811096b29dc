"""Django database backend for Informix over ifxwire: ``ENGINE: "ifxwire.django"``.

Django 5.2 LTS; docs/DJANGO.md says what works, what does not and why (each disabled feature
flag in ``features.py`` names the Informix limitation behind it).
"""
