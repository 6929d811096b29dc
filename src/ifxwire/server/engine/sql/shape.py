"""Long and deep statements: refuse what cannot be compiled, reshape what can.

sqlglot parses ``a OR b OR c …`` into a left-deep tree as deep as the chain is long. Every later
pass over it (column qualification, our translator, SQL generation) recurses, so 500 OR terms
used to fail with RecursionError and each pass cost O(depth) per node, O(n²) in all; SQLite
then refused the text anyway ("Expression tree is too large (maximum depth 1000)"). Chains of
an associative operator are therefore rebuilt as balanced trees right after parsing, each
inner node parenthesised so the generated SQL keeps the shape and SQLite's own parse tree is
balanced too: depth log₂ n, time near-linear.

OR and AND are associative in SQL's three-valued logic and ``||`` in Informix (a NULL operand
makes any grouping NULL), so regrouping changes no result. Arithmetic chains are left alone:
regrouping could change where an overflow or a float rounding happens.

What is genuinely deep (nested parentheses, subqueries) is bounded instead: Informix refuses a
statement its parser cannot hold with -762 "Stack overflow occurred during statement parse".
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.tokenizer_core import Token, TokenType

from ..core import sqlcodes as sc
from ..core.errors import EngineError

#: Deepest nesting of parentheses accepted. sqlglot and the translator recurse about 20
#: Python frames per level; with the default recursion limit of 1000 and a session thread's
#: own frames this keeps a margin. Deeper statements get -762 before parsing.
MAX_NESTING = 40
#: Chains shorter than this stay as parsed (their depth is harmless).
BALANCE_FROM = 16

_CHAINS: tuple[type[exp.Expr], ...] = (exp.Or, exp.And, exp.DPipe)


def check_nesting(tokens: list[Token]) -> None:
    """-762 when parentheses nest deeper than MAX_NESTING (counted on tokens: no recursion)."""
    depth = 0
    for tok in tokens:
        kind = tok.token_type
        if kind == TokenType.L_PAREN:
            depth += 1
            if depth > MAX_NESTING:
                raise EngineError(sc.PARSE_STACK, offset=max(tok.start, 0),
                                  message=f"parentheses nest deeper than {MAX_NESTING} levels")
        elif kind == TokenType.R_PAREN:
            depth -= 1


def balance_chains(root: exp.Expr) -> exp.Expr:
    """Rebuild long left-deep OR/AND/|| chains under ``root`` as balanced trees, iteratively."""
    stack: list[exp.Expr] = [root]
    while stack:
        node = stack.pop()
        if type(node) in _CHAINS:
            operands = _operands(node)
            if len(operands) >= BALANCE_FROM:
                extra = {k: v for k, v in node.args.items() if k not in ("this", "expression")}
                balanced = _build(type(node), operands, extra)
                if node is root:
                    root = balanced
                else:
                    node.replace(balanced)
            stack.extend(operands)
            continue
        stack.extend(node.iter_expressions())
    return root


def _operands(node: exp.Expr) -> list[exp.Expr]:
    """The operands of a chain of ``type(node)``, left to right, without recursion."""
    kind = type(node)
    right: list[exp.Expr] = []
    left: exp.Expr = node
    while type(left) is kind:
        right.append(left.expression)
        left = left.this
    right.append(left)
    right.reverse()
    return right


def _build(kind: type[exp.Expr], operands: list[exp.Expr], extra: dict[str, object]
           ) -> exp.Expr:
    """A balanced tree of ``kind`` over ``operands``; every inner node below the top is
    parenthesised, so the generator prints it as grouped (it would flatten bare same-kind
    children back into one long chain)."""
    level = operands
    while len(level) > 1:
        paired: list[exp.Expr] = []
        last = len(level) == 2
        for i in range(0, len(level) - 1, 2):
            joined = kind(this=level[i], expression=level[i + 1], **extra)
            paired.append(joined if last else exp.Paren(this=joined))
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]
