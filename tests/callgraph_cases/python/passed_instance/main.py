class Mailer:
    def send(self):
        pass


def notify(channel):
    channel.send()


notify(Mailer())
