import mod

mod.func()
