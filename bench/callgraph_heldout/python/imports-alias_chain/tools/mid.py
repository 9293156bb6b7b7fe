from .fmt import upper as shout
