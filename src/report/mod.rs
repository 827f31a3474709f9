//! Mail bodies from templates, built only from a seat's View.
