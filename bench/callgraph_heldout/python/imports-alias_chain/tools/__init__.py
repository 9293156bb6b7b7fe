from .fmt import pad as render
