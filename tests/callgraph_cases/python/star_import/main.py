from mod import *

func()
other()
