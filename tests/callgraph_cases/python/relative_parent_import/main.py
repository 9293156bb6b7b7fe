from pkg.sub.x import go

go()
