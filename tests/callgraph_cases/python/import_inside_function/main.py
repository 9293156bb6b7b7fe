def run():
    from mod import tool
    tool()


run()
