class Repo:
    def save(self):
        pass


def store(repo: Repo):
    repo.save()


store(Repo())
