class QueueError(Exception):
    def __init__(self, *args):
        super().__init__(*args)
        self.queue_name = None


class QueueFull(QueueError):
    pass


class QueueEmpty(Exception):
    pass
