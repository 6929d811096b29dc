"""Smart large objects: sbspace files, the LO store, open LO handles and the
LO SQL functions (a part of the features layer)."""
