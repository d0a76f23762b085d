//! The main line (本手順) from a proven root, read from the table.
