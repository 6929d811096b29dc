"""Alembic against the embedded server: autogenerate a migration from a changed model (a new
table with a foreign key, a new column, a new index), run it, check the database, check that
a second autogenerate finds nothing left to do, and downgrade."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

alembic = pytest.importorskip("alembic")
from alembic import command  # noqa: E402
from alembic.config import Config  # noqa: E402
from sqlalchemy import (  # noqa: E402
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Numeric,
    String,
    Table,
    inspect,
)

ENV_PY = '''
from alembic import context

config = context.config
connectable = config.attributes["engine"]
target_metadata = config.attributes.get("metadata")

if context.is_offline_mode():
    context.configure(url=str(connectable.url), target_metadata=target_metadata,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
'''

SCRIPT_MAKO = '''"""${message}"""
from alembic import op
import sqlalchemy as sa
${imports if imports else ""}
revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = None
depends_on = None


def upgrade():
    ${upgrades if upgrades else "pass"}


def downgrade():
    ${downgrades if downgrades else "pass"}
'''


def model(version: int) -> MetaData:
    md = MetaData()
    author = [Column("id", Integer, primary_key=True), Column("name", String(60), nullable=False)]
    if version >= 2:
        author.append(Column("email", String(120)))
    Table("author", md, *author)
    if version >= 2:
        Index("ix_author_email", md.tables["author"].c.email, unique=True)
        Table("book", md,
              Column("id", Integer, primary_key=True),
              Column("author_id", ForeignKey("author.id", name="fk_book_author"),
                     nullable=False),
              Column("title", String(200), nullable=False),
              Column("price", Numeric(8, 2)))
    return md


@pytest.fixture()
def alembic_config(tmp_path: Path, engine: Any) -> Config:
    scripts = tmp_path / "migrations"
    (scripts / "versions").mkdir(parents=True)
    (scripts / "env.py").write_text(ENV_PY)
    (scripts / "script.py.mako").write_text(SCRIPT_MAKO)
    cfg = Config(stdout=io.StringIO())
    cfg.set_main_option("script_location", str(scripts))
    cfg.attributes["engine"] = engine
    return cfg


def _revision(cfg: Config, version: int, message: str) -> str:
    cfg.attributes["metadata"] = model(version)
    script = command.revision(cfg, message=message, autogenerate=True)
    assert script is not None and not isinstance(script, list)
    return Path(script.path).read_text()


def test_autogenerate_upgrade_and_downgrade(alembic_config: Config, engine: Any) -> None:
    model(1).create_all(engine)
    command.stamp(alembic_config, "head")

    text = _revision(alembic_config, 2, "books")
    assert "op.create_table('book'" in text
    assert "sa.ForeignKeyConstraint(['author_id'], ['author.id'], name='fk_book_author')" \
        in text
    assert "op.add_column('author', sa.Column('email', sa.String(length=120)" in text
    assert "op.create_index('ix_author_email', 'author', ['email'], unique=True)" in text

    command.upgrade(alembic_config, "head")
    insp = inspect(engine)
    assert "email" in [c["name"] for c in insp.get_columns("author")]
    assert insp.get_indexes("author") == [
        {"name": "ix_author_email", "column_names": ["email"], "unique": True}]
    fks = insp.get_foreign_keys("book")
    assert [(f["name"], f["constrained_columns"], f["referred_table"], f["referred_columns"])
            for f in fks] == [("fk_book_author", ["author_id"], "author", ["id"])]

    # the reflected schema now matches the model: nothing left to migrate
    again = _revision(alembic_config, 2, "nothing")
    body = again.split("def upgrade():", 1)[1]
    assert "op." not in body, body

    command.upgrade(alembic_config, "head")
    command.downgrade(alembic_config, "base")  # the empty revision, then the real one
    insp = inspect(engine)
    assert sorted(insp.get_table_names()) == ["alembic_version", "author"]
    assert [c["name"] for c in insp.get_columns("author")] == ["id", "name"]
    assert insp.get_indexes("author") == []


def test_hand_written_migration_offline_and_online(alembic_config: Config,
                                                   engine: Any) -> None:
    """--sql mode renders what a DBA would run by hand, in Informix's own syntax; the same
    migration then runs against the server: a foreign key added to an existing table, a
    column changed with MODIFY, renames, an added and a dropped column."""
    md = model(2)
    alembic_config.attributes["metadata"] = md
    versions = Path(alembic_config.get_main_option("script_location") or "") / "versions"
    (versions / "a1_manual.py").write_text('''
from alembic import op
import sqlalchemy as sa
revision = "a1"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("author", sa.Column("rating", sa.SmallInteger(), nullable=True))
    op.create_foreign_key("fk_x", "book", "author", ["author_id"], ["id"], ondelete="CASCADE")
    op.alter_column("author", "name", existing_type=sa.String(60), type_=sa.String(80),
                    existing_nullable=False)
    op.alter_column("author", "email", new_column_name="mail")
    op.rename_table("book", "books")
    op.drop_column("author", "rating")


def downgrade():
    pass
''')
    out = io.StringIO()
    alembic_config.stdout = out
    alembic_config.output_buffer = out
    command.upgrade(alembic_config, "a1", sql=True)
    sql = out.getvalue()
    assert "ALTER TABLE author ADD (rating SMALLINT);" in sql
    assert ("ALTER TABLE book ADD CONSTRAINT FOREIGN KEY (author_id) REFERENCES author (id) "
            "ON DELETE CASCADE CONSTRAINT fk_x;") in sql
    assert "ALTER TABLE author MODIFY (name VARCHAR(80) NOT NULL);" in sql
    assert "RENAME COLUMN author.email TO mail;" in sql
    assert "RENAME TABLE book TO books;" in sql
    assert "ALTER TABLE author DROP rating;" in sql

    md.drop_all(engine)  # whatever an earlier test left in this module's database
    md.create_all(engine)
    alembic_config.output_buffer = None
    command.upgrade(alembic_config, "a1")
    insp = inspect(engine)
    assert sorted(insp.get_table_names()) == ["alembic_version", "author", "books"]
    cols = {c["name"]: c for c in insp.get_columns("author")}
    assert list(cols) == ["id", "name", "mail"]
    assert cols["name"]["type"].length == 80 and cols["name"]["nullable"] is False
    fks = {f["name"]: f for f in insp.get_foreign_keys("books")}
    assert fks["fk_x"]["constrained_columns"] == ["author_id"]
    assert fks["fk_x"]["options"] == {"ondelete": "CASCADE"}
