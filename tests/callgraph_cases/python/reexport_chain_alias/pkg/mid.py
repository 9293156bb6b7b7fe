from .impl import compute
