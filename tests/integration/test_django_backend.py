"""The Django backend (ENGINE "ifxwire.django") against the embedded server: a small app
with a foreign key, its migrations made and applied, queries, aggregation, a rolled-back
atomic block and a savepoint, lastrowid primary keys, and inspectdb reading the tables
back. Django's settings are process-wide, so the app is configured once for this module."""

from __future__ import annotations

import io
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

django = pytest.importorskip("django")

import ifxwire  # noqa: E402

MODELS = '''
from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=100, unique=True)
    born = models.DateField(null=True)
    active = models.BooleanField(default=True)


class Book(models.Model):
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="books")
    title = models.CharField(max_length=200, db_index=True)
    pages = models.IntegerField(default=0)
    price = models.DecimalField(max_digits=8, decimal_places=2, null=True)
    published = models.DateTimeField(null=True)
    notes = models.TextField(blank=True, default="")
'''


@pytest.fixture(scope="module")
def djapp(server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from django.conf import settings

    if settings.configured:
        pytest.skip("Django settings were configured by another test module")
    root = tmp_path_factory.mktemp("djproject")
    pkg = root / "ifxshop"
    (pkg / "migrations").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "migrations" / "__init__.py").write_text("")
    (pkg / "models.py").write_text(textwrap.dedent(MODELS))
    with ifxwire.connect(host=server.host, port=server.port, user="informix",
                         password="in4mix", autocommit=True) as conn:
        conn.execute("CREATE DATABASE djshop WITH LOG")
        conn.execute("CREATE DATABASE djnolog")  # unlogged: no transactions
    sys.path.insert(0, str(root))
    settings.configure(
        INSTALLED_APPS=["ifxshop"],
        DATABASES={name: {
            "ENGINE": "ifxwire.django", "NAME": db, "HOST": server.host,
            "PORT": str(server.port), "USER": "informix", "PASSWORD": "in4mix"}
            for name, db in (("default", "djshop"), ("unlogged", "djnolog"))},
        USE_TZ=False, DEFAULT_AUTO_FIELD="django.db.models.AutoField")
    django.setup()
    from django.core.management import call_command

    call_command("makemigrations", "ifxshop", verbosity=0)
    call_command("migrate", verbosity=0)
    yield root
    sys.path.remove(str(root))


def test_migrations_made_the_tables(djapp: Path) -> None:
    from django.db import connection

    tables = connection.introspection.table_names()
    assert {"ifxshop_author", "ifxshop_book", "django_migrations"} <= set(tables)
    with connection.cursor() as cur:
        cons = connection.introspection.get_constraints(cur, "ifxshop_book")
        cols = {c.name: c for c in connection.introspection.get_table_description(
            cur, "ifxshop_book")}
    fks = [c for c in cons.values() if c["foreign_key"]]
    assert fks and fks[0]["foreign_key"] == ("ifxshop_author", "id")
    assert any(c["index"] and c["columns"] == ["title"] for c in cons.values())
    assert cols["price"].null_ok and not cols["pages"].null_ok


def test_queries_aggregation_and_serial_keys(djapp: Path) -> None:
    import datetime
    import decimal

    from django.db.models import Avg, Count, Max, Q, Sum
    from ifxshop.models import Author, Book  # type: ignore[import-not-found]

    ann = Author.objects.create(name="Ann", born=datetime.date(1970, 5, 1))
    bob = Author.objects.create(name="Bob", active=False)
    assert ann.pk and bob.pk == ann.pk + 1  # SERIAL values through lastrowid
    for i in range(5):
        Book.objects.create(author=ann if i < 3 else bob, title=f"Book {i}", pages=100 * i,
                            price=decimal.Decimal("9.99") * i,
                            published=datetime.datetime(2020, 1, i + 1, 12, 30))
    assert Book.objects.filter(author__name="Ann").count() == 3
    assert list(Book.objects.order_by("-pages").values_list("title", flat=True)[1:3]) == [
        "Book 3", "Book 2"]  # SKIP 1 FIRST 2
    assert Book.objects.filter(title__icontains="book 4").get().pages == 400
    agg = Book.objects.aggregate(n=Count("id"), total=Sum("pages"), avg=Avg("pages"),
                                 top=Max("price"))
    assert agg["n"] == 5 and agg["total"] == 1000 and agg["avg"] == 200
    assert agg["top"] == decimal.Decimal("39.96")
    per_author = dict(Author.objects.annotate(n=Count("books")).values_list("name", "n"))
    assert per_author == {"Ann": 3, "Bob": 2}
    assert Book.objects.filter(published__year=2020, published__day=2).count() == 1
    assert Book.objects.filter(Q(pages__gte=300) | Q(author__active=False)).count() == 2
    assert list(Book.objects.dates("published", "month")) == [datetime.date(2020, 1, 1)]
    Book.objects.filter(author=bob).update(pages=1)
    assert Book.objects.filter(pages=1).count() == 2
    bob.delete()  # cascades to his books
    assert Book.objects.count() == 3


def test_transactions_and_savepoints(djapp: Path) -> None:
    from django.db import IntegrityError, transaction
    from ifxshop.models import Author  # type: ignore[import-not-found]

    before = Author.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        Author.objects.create(name="Gone")
        raise RuntimeError("roll back")
    assert not Author.objects.filter(name="Gone").exists()
    with transaction.atomic():
        Author.objects.create(name="Kept")
        with pytest.raises(IntegrityError), transaction.atomic():  # a savepoint
            Author.objects.create(name="Kept")  # unique: -268
        Author.objects.create(name="Kept too")
    assert Author.objects.count() == before + 2


def test_inspectdb_reads_the_tables_back(djapp: Path) -> None:
    from django.core.management import call_command

    out = io.StringIO()
    call_command("inspectdb", "ifxshop_book", "ifxshop_author", stdout=out)
    text = out.getvalue()
    assert "class IfxshopBook(models.Model):" in text
    assert "author = models.ForeignKey('IfxshopAuthor', models.DO_NOTHING)" in text
    assert "title = models.CharField(max_length=200)" in text
    assert "price = models.DecimalField(max_digits=8, decimal_places=2, blank=True, " \
           "null=True)" in text
    assert "published = models.DateTimeField(blank=True, null=True)" in text
    assert "name = models.CharField(unique=True, max_length=100)" in text


def test_unlogged_database_runs_atomic_blocks_without_256(djapp: Path) -> None:
    """An unlogged database has no transactions (BEGIN WORK is -256, what users of the ODBC
    backend meet): the backend stays in autocommit there, so atomic() works and each
    statement commits by itself."""
    from django.db import connections, transaction

    conn = connections["unlogged"]
    with conn.cursor() as cur:
        cur.execute("CREATE TABLE nolog (id SERIAL PRIMARY KEY, v INT)")
    with pytest.raises(RuntimeError), transaction.atomic(using="unlogged"):
        with conn.cursor() as cur:
            cur.execute("INSERT INTO nolog (v) VALUES (%s)", [1])
            assert cur.lastrowid == 1
        # nested: no savepoint either
        with transaction.atomic(using="unlogged"), conn.cursor() as cur:
            cur.execute("INSERT INTO nolog (v) VALUES (%s)", [2])
        raise RuntimeError("no rollback in an unlogged database")
    with conn.cursor() as cur:
        cur.execute("SELECT v FROM nolog ORDER BY v")
        assert cur.fetchall() == [(1,), (2,)]  # committed: nothing could be rolled back
