"""Game trees: the immutable model, its parser and its JSON document form."""
