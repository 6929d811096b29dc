"""Completion of SQL keywords, table names and column names read from the catalog."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

KEYWORDS = """
SELECT FROM WHERE GROUP BY HAVING ORDER ASC DESC UNION ALL DISTINCT UNIQUE FIRST SKIP LIMIT
INSERT INTO VALUES UPDATE SET DELETE MERGE USING MATCHED THEN CREATE TABLE TEMP VIEW INDEX
SEQUENCE SYNONYM PROCEDURE FUNCTION TRIGGER DROP ALTER ADD MODIFY RENAME COLUMN CONSTRAINT
PRIMARY KEY FOREIGN REFERENCES CHECK DEFAULT NOT NULL AND OR IN IS LIKE MATCHES BETWEEN EXISTS
CASE WHEN ELSE END AS ON JOIN INNER LEFT RIGHT FULL OUTER CROSS WITH BEGIN WORK COMMIT ROLLBACK
SAVEPOINT RELEASE DATABASE CLOSE SET ISOLATION LOCK MODE WAIT EXECUTE GRANT REVOKE TO
INTEGER SMALLINT BIGINT INT8 SERIAL SERIAL8 BIGSERIAL DECIMAL MONEY FLOAT SMALLFLOAT CHAR
VARCHAR NCHAR NVARCHAR LVARCHAR BOOLEAN DATE DATETIME INTERVAL YEAR MONTH DAY HOUR MINUTE
SECOND FRACTION BYTE TEXT BLOB CLOB TODAY CURRENT USER COUNT SUM AVG MIN MAX NVL DECODE
CAST TRIM SUBSTR LENGTH UPPER LOWER ROUND MOD INFO TABLES COLUMNS INDEXES FOR
""".split()  # noqa: SIM905 (a word list reads better as text)

_WORD = re.compile(r"[\w$]*$")
_QUALIFIED = re.compile(r"([\w$]+)\.([\w$]*)$")


class CatalogCompleter(Completer):
    """Keywords, tables and columns; ``t.`` completes the columns of ``t`` (or of the table
    an alias ``t`` stands for, when the statement names it as ``FROM table t``)."""

    def __init__(self) -> None:
        self.tables: list[str] = []
        self.columns: dict[str, list[str]] = {}

    def load(self, tables: list[str], columns: dict[str, list[str]]) -> None:
        self.tables, self.columns = tables, columns

    def _aliases(self, text: str) -> dict[str, str]:
        aliases = {t: t for t in self.tables}
        for table, alias in re.findall(r"\b([\w$]+)\s+(?:AS\s+)?([\w$]+)", text, re.IGNORECASE):
            if table in self.columns and alias.upper() not in KEYWORDS:
                aliases[alias] = table
        return aliases

    def get_completions(self, document: Document,
                        complete_event: CompleteEvent) -> Iterator[Completion]:
        before = document.text_before_cursor
        qualified = _QUALIFIED.search(before)
        if qualified is not None:
            table = self._aliases(document.text).get(qualified.group(1))
            if table is None:  # an alias the statement does not define yet: every column
                names = sorted({c for cols in self.columns.values() for c in cols})
            else:
                names = self.columns[table]
            yield from self._matching(names, qualified.group(2))
            return
        word = _WORD.search(before)
        prefix = word.group(0) if word else ""
        if not prefix:
            return
        mentioned = [t for t in self.tables if re.search(rf"\b{re.escape(t)}\b", document.text)]
        columns = [c for t in mentioned for c in self.columns.get(t, [])]
        others = [c for t in self.tables if t not in mentioned for c in self.columns[t]]
        seen: set[str] = set()
        for source in (columns, self.tables, KEYWORDS, others):
            for c in self._matching(source, prefix):
                if c.text not in seen:
                    seen.add(c.text)
                    yield c

    @staticmethod
    def _matching(candidates: Iterable[str], prefix: str) -> Iterator[Completion]:
        low = prefix.lower()
        upper_case = prefix[:1].isupper()
        for cand in candidates:
            if cand.lower().startswith(low) and cand.lower() != low:
                text = cand.upper() if upper_case and cand.isupper() else (
                    cand.lower() if cand.isupper() else cand)
                yield Completion(text, start_position=-len(prefix))
