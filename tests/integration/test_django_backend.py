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

#: A UTF-8 database, where VARCHAR's bytes are not its characters.
UTF8 = {"client_locale": "en_US.utf8", "db_locale": "en_US.utf8"}


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
                         password="in4mix", autocommit=True, **UTF8) as conn:
        conn.execute("CREATE DATABASE djshop WITH LOG")
        conn.execute("CREATE DATABASE djnolog")  # unlogged: no transactions
    sys.path.insert(0, str(root))
    settings.configure(
        INSTALLED_APPS=["ifxshop"],
        DATABASES={name: {
            "ENGINE": "ifxwire.django", "NAME": db, "HOST": server.host,
            "PORT": str(server.port), "USER": "informix", "PASSWORD": "in4mix",
            "OPTIONS": dict(UTF8)}
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
    # Informix's STDEV/VARIANCE are the population statistics (ids_sqs_1594); the sample
    # ones are derived from them: pages 0..400 have variance 20000 (population), 25000.
    from django.db.models import StdDev, Variance
    stats = Book.objects.aggregate(pv=Variance("pages"), sv=Variance("pages", sample=True),
                                   pd=StdDev("pages"), sd=StdDev("pages", sample=True))
    assert stats["pv"] == pytest.approx(20000) and stats["sv"] == pytest.approx(25000)
    assert stats["pd"] == pytest.approx(20000 ** 0.5)
    assert stats["sd"] == pytest.approx(25000 ** 0.5)
    one = Book.objects.filter(pages=400).aggregate(s=StdDev("pages", sample=True),
                                                   p=StdDev("pages"))
    assert one == {"s": None, "p": 0}
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


def test_too_long_text_is_refused_not_truncated(djapp: Path) -> None:
    """Informix keeps the first bytes of a value longer than its column and says nothing
    (not MODE ANSI); VARCHAR counts bytes, so 51 'é' (102 bytes in UTF-8) do not fit a
    CharField(max_length=100). The backend refuses such a value with a DataError naming the
    column, on create, save, update, bulk_create and bulk_update, and stores nothing."""
    from django.db import DataError, connection
    from ifxshop.models import Author, Book  # type: ignore[import-not-found]

    fits = "é" * 50  # 100 bytes: the column's size exactly
    ok = Author.objects.create(name=fits)
    assert Author.objects.get(pk=ok.pk).name == fits
    with pytest.raises(DataError, match=r'"ifxshop_author"\."name".*102 bytes'):
        Author.objects.create(name="é" * 51)
    assert not Author.objects.filter(name__startswith="é" * 50 + "é").exists()
    ok.name = "€" * 34  # 102 bytes, 34 characters
    with pytest.raises(DataError, match='"name"'):
        ok.save()
    with pytest.raises(DataError, match='"name"'):
        Author.objects.filter(pk=ok.pk).update(name="x" * 101)
    with pytest.raises(DataError, match='"name"'):
        Author.objects.bulk_create([Author(name="a"), Author(name="ü" * 60)])
    assert Author.objects.get(pk=ok.pk).name == fits
    assert not Author.objects.filter(name="a").exists()

    # TextField: LVARCHAR(4000) bytes; a longer text is refused, the largest one round-trips
    book = Book.objects.create(author=ok, title="Long", notes="n" * 3998 + "é")
    assert Book.objects.get(pk=book.pk).notes == "n" * 3998 + "é"
    assert Book.objects.filter(notes__endswith="é").count() == 1  # filters like a string
    book.notes = "n" * 3999 + "é"
    with pytest.raises(DataError, match=r'"ifxshop_book"\."notes".*4001 bytes'):
        book.save()
    book.notes = "short"
    book.title = "ß" * 101  # 202 bytes in VARCHAR(200)
    with pytest.raises(DataError, match='"title"'):
        Book.objects.bulk_update([book], ["title", "notes"])
    assert Book.objects.get(pk=book.pk).title == "Long"
    assert connection.connection.encoding == "utf-8"


def test_text_field_bytes_option_sizes_textfield(djapp: Path) -> None:
    """OPTIONS["text_field_bytes"] sets TextField's LVARCHAR size (1..32739, LVARCHAR's
    maximum) and is not passed on to ifxwire.connect."""
    from django.core.exceptions import ImproperlyConfigured
    from django.db import connection

    from ifxwire.django.base import DatabaseWrapper

    settings = {**connection.settings_dict,
                "OPTIONS": {**UTF8, "text_field_bytes": 30000}}
    wrapper = DatabaseWrapper(settings)
    assert wrapper.data_types["TextField"] == "LVARCHAR(30000)"
    assert "text_field_bytes" not in wrapper.get_connection_params()
    with pytest.raises(ImproperlyConfigured, match="text_field_bytes"):
        DatabaseWrapper({**settings, "OPTIONS": {"text_field_bytes": 40000}})


def test_concat_of_string_values_fits_the_output_row(djapp: Path) -> None:
    """A string Value is cast in the select list (a bare ? is -201 there); cast to
    LVARCHAR(32739) each, a Concat of two made an output row past 32,767 bytes, which the
    server refuses at PREPARE (-528). Sized to the value, it runs."""
    from django.db.models import CharField, Value
    from django.db.models.functions import Concat
    from ifxshop.models import Author  # type: ignore[import-not-found]

    Author.objects.get_or_create(name="Concat")
    got = Author.objects.filter(name="Concat").annotate(
        v=Concat(Value("8400"), Value("é-e29b"), output_field=CharField()),
        w=Value("x")).values_list("v", "w")
    assert list(got) == [("8400é-e29b", "x")]


def test_cast_to_unsized_charfield_fits_the_output_row(djapp: Path) -> None:
    """Cast(x, CharField()) was CAST(x AS LVARCHAR(32739)): with the model's other columns
    the output row passed 32,767 bytes (-528). Sized to the source (255 bytes for a number,
    the column's size for a character column), it runs."""
    from django.db.models import CharField, Value
    from django.db.models.functions import Cast
    from ifxshop.models import Author  # type: ignore[import-not-found]

    a, _ = Author.objects.get_or_create(name="Cast me")
    got = Author.objects.filter(pk=a.pk).annotate(
        s=Cast("id", CharField()), n=Cast("name", CharField())).values_list("s", "n")
    assert list(got) == [(str(a.pk), "Cast me")]
    # a Value typed CharField() has no column type of its own (max_length None)
    const = Cast(Value("1", output_field=CharField()), CharField())
    assert list(Author.objects.filter(pk=a.pk).annotate(c=const).values_list("c")) == [("1",)]


def test_iexact_compares_underscores_and_percent_literally(djapp: Path) -> None:
    """iexact is "= UPPER(%s)", not LIKE: its value was escaped for LIKE ("A\\_B"), so a
    name with "_" or "%" never matched itself."""
    from ifxshop.models import Author  # type: ignore[import-not-found]

    Author.objects.create(name="a_b%c")
    assert Author.objects.filter(name__iexact="A_B%C").count() == 1
    assert Author.objects.filter(name__iexact="AxB%C").count() == 0


def test_logged_query_is_the_text_that_ran(djapp: Path) -> None:
    """Django's query log (connection.queries) shows what the cursor ran, including what an
    execute_wrapper changed."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from ifxshop.models import Author  # type: ignore[import-not-found]

    def comment(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        return execute(f"/* traced */ {sql}", params, many, context)

    with CaptureQueriesContext(connection) as ctx, connection.execute_wrapper(comment):
        list(Author.objects.filter(name="Ann"))
    assert ctx.captured_queries[-1]["sql"].startswith("/* traced */ SELECT")
    assert "'Ann'" in ctx.captured_queries[-1]["sql"]


def test_date_minus_date_is_a_duration(djapp: Path) -> None:
    """DATE - DATE is an INTEGER count of days in Informix; the backend cast it to an
    INTERVAL, which is -1260. UNITS DAY makes the number an interval."""
    import datetime

    from django.db.models import DateField, F, Value
    from ifxshop.models import Author  # type: ignore[import-not-found]

    Author.objects.create(name="Dated", born=datetime.date(1970, 5, 1))
    got = Author.objects.filter(name="Dated").annotate(
        d=F("born") - Value(datetime.date(1970, 4, 1), output_field=DateField())).get().d
    assert got == datetime.timedelta(days=30)


def test_db_index_on_a_textfield_makes_no_index(djapp: Path) -> None:
    """features.supports_index_on_text_field is off (a TextField is a long LVARCHAR, wider
    than an index key): db_index=True on one creates no index, as Django's MySQL backend
    does, instead of an index the feature flag says cannot exist."""
    from django.db import connection, models

    class Memo(models.Model):
        body = models.TextField(db_index=True)
        tag = models.CharField(max_length=10, db_index=True)

        class Meta:
            app_label = "ifxshop"

    with connection.schema_editor() as editor:
        editor.create_model(Memo)
    try:
        with connection.cursor() as cur:
            cons = connection.introspection.get_constraints(cur, Memo._meta.db_table)
        indexed = [c["columns"] for c in cons.values() if c["index"] and not c["primary_key"]]
        assert indexed == [["tag"]]
    finally:
        with connection.schema_editor() as editor:
            editor.delete_model(Memo)


def test_decimal_expression_keeps_its_own_scale(djapp: Path) -> None:
    """The decimal converter brought every DecimalField expression to its field's scale, so
    Sum("price", default=Pi()) over no rows (NVL(SUM(price), 3.14159...)) came back as 3.14;
    only a column's value is brought to its field's places now, as Django's SQLite backend
    does (aggregation's test_aggregation_default_using_decimal_from_database)."""
    import decimal
    import math

    from django.db.models import Sum
    from django.db.models.functions import Pi
    from ifxshop.models import Author, Book  # type: ignore[import-not-found]

    got = Book.objects.filter(pages__lt=-1).aggregate(v=Sum("price", default=Pi()))["v"]
    assert abs(got - decimal.Decimal(math.pi)) < decimal.Decimal("1e-9")
    author = Author.objects.create(name="Scaled")
    Book.objects.create(author=author, title="Scaled", price=decimal.Decimal("7.5"))
    price = Book.objects.filter(title="Scaled").values_list("price", flat=True).get()
    assert str(price) == "7.50"  # a column keeps its field's two places


def test_mod_of_decimals_is_fmod_and_of_integers_mod(djapp: Path) -> None:
    """Informix's MOD takes its operands' integer parts (ids_sqs_1476): Django's Mod of a
    DecimalField came back as MOD(-9.9, 4.6) = -1 where Django means fmod, -0.7. Decimals
    and floats are spelt as the remainder of the truncated quotient; integers keep MOD."""
    import decimal

    from django.db.models import F, Value
    from django.db.models.functions import Mod
    from ifxshop.models import Author, Book  # type: ignore[import-not-found]

    author = Author.objects.create(name="Modulo")
    Book.objects.create(author=author, title="Modulo", price=decimal.Decimal("-9.90"),
                        pages=17)
    got = Book.objects.filter(title="Modulo").annotate(
        d=Mod("price", Value(decimal.Decimal("4.60"))), i=Mod(F("pages"), Value(5)),
    ).values_list("d", "i").get()
    assert got[0] == decimal.Decimal("-0.70") and got[1] == 2


def test_integer_key_altered_to_autofield_numbers_new_rows(djapp: Path) -> None:
    """An IntegerField primary key made an AutoField is MODIFY (id SERIAL) now (the server
    refused it, so the backend kept INTEGER and new rows got no number), and introspection
    gives a SERIAL the type code of the INTEGER its foreign keys have, with is_autofield."""
    from django.db import connection, models

    class Ticket(models.Model):
        id = models.IntegerField(primary_key=True)
        title = models.CharField(max_length=10)

        class Meta:
            app_label = "ifxshop"

    with connection.schema_editor() as editor:
        editor.create_model(Ticket)
    try:
        Ticket.objects.create(id=41, title="old")
        old_field = Ticket._meta.get_field("id")
        new_field = models.AutoField(primary_key=True)
        new_field.set_attributes_from_name("id")
        new_field.model = Ticket
        with connection.schema_editor() as editor:
            editor.alter_field(Ticket, old_field, new_field, strict=True)
        with connection.cursor() as cur:
            cur.execute(f'INSERT INTO "{Ticket._meta.db_table}" ("title") VALUES (%s)',
                        ["new"])
            assert cur.lastrowid == 42
            desc = {c.name: c for c in connection.introspection.get_table_description(
                cur, Ticket._meta.db_table)}
        assert desc["id"].type_code == "INTEGER" and desc["id"].is_autofield
        assert connection.introspection.get_field_type("INTEGER", desc["id"]) == "AutoField"
    finally:
        with connection.schema_editor() as editor:
            editor.delete_model(Ticket)


def test_constraint_checks_deferred_in_a_transaction_and_checked(djapp: Path) -> None:
    """disable_constraint_checking defers the referential checks to COMMIT (SET
    CONSTRAINTS ALL DEFERRED) inside a transaction, and check_constraints finds the row
    whose foreign key has no parent (Django's loaddata and test-database deserialisation;
    it was the base class's no-op, so a forward reference was -691 at once)."""
    from django.db import IntegrityError, connection, transaction
    from ifxshop.models import Author, Book  # type: ignore[import-not-found]

    author = Author.objects.create(name="Deferred")
    assert connection.disable_constraint_checking() is False  # autocommit: nothing to defer
    with pytest.raises(IntegrityError):
        Book.objects.create(author_id=999999, title="orphan")
    with transaction.atomic():
        with connection.constraint_checks_disabled():
            book = Book.objects.create(author_id=999999, title="orphan")
        with pytest.raises(IntegrityError, match="999999"):
            connection.check_constraints(table_names=[Book._meta.db_table])
        book.author = author
        book.save()
        connection.check_constraints(table_names=[Book._meta.db_table])
    assert Book.objects.get(title="orphan").author_id == author.pk


def test_foreign_key_index_is_introspected(djapp: Path) -> None:
    """Informix backs a foreign key with an index of its columns (the schema editor makes
    none of Django's: a second one is -350); get_constraints lists it as an index of its
    own, as Django's MySQL backend lists its foreign keys' indexes, where it listed none and
    Django's schema tests found no index on a ForeignKey column."""
    from django.db import connection
    from ifxshop.models import Book  # type: ignore[import-not-found]

    with connection.cursor() as cur:
        cons = connection.introspection.get_constraints(cur, Book._meta.db_table)
    fks = [c for c in cons.values() if c["foreign_key"]]
    assert [(c["columns"], c["index"]) for c in fks] == [(["author_id"], False)]
    indexes = sorted(c["columns"][0] for c in cons.values()
                     if c["index"] and not c["unique"] and len(c["columns"]) == 1)
    assert indexes == ["author_id", "title"]


def test_foreign_key_column_added_with_its_constraint(djapp: Path) -> None:
    """add_field of a ForeignKey writes ADD c INTEGER REFERENCES t (id) CONSTRAINT name in
    one statement (sql_create_column_inline_fk); it left the constraint to a second ALTER
    TABLE ... ADD CONSTRAINT in the deferred SQL."""
    from django.db import connection, models
    from ifxshop.models import Author  # type: ignore[import-not-found]

    class Note(models.Model):
        text = models.CharField(max_length=10)

        class Meta:
            app_label = "ifxshop"

    with connection.schema_editor() as editor:
        editor.create_model(Note)
    try:
        field = models.ForeignKey(Author, models.CASCADE, null=True)
        field.set_attributes_from_name("author")
        with connection.schema_editor() as editor:
            editor.add_field(Note, field)
            assert not [s for s in map(str, editor.deferred_sql) if "ADD CONSTRAINT" in s]
        with connection.cursor() as cur:
            cons = connection.introspection.get_constraints(cur, Note._meta.db_table)
        assert [c["foreign_key"] for c in cons.values() if c["foreign_key"]] == [
            (Author._meta.db_table, "id")]
    finally:
        with connection.schema_editor() as editor:
            editor.delete_model(Note)
