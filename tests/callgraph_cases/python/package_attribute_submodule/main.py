import pkg

pkg.sub.func()
