import pkg.tools as t

t.run()
