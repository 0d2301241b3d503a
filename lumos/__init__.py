"""Lumos: a rules language, compiler and interpreter for wizarding board games."""
__version__ = "0.1.0"
