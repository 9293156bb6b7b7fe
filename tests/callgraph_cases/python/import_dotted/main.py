import pkg.sub

pkg.sub.func()
