from pkg import func

func()
