from .mid import compute as total
