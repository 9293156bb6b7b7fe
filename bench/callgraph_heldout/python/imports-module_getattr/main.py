# concurrent.futures/__init__.py: a module-level __getattr__ (PEP 562) imports heavy names
# on first use; `lazy.Worker` runs lazy.__getattr__
import lazy

w = lazy.Worker()
w.run()
lazy.direct()
