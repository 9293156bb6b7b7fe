def original():
    pass


alias = original
alias()
