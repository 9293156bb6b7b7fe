from pkg.a import run

run()
