import a
from b import process

a.process()
process()
