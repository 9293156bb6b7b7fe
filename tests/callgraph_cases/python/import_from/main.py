from mod import func

func()
