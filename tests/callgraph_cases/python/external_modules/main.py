import json
from os import path


def save(data):
    text = json.dumps(data)
    return path.join("out", text)


save({})
