from mod import func as f

f()
