# After `requests.api`: `fetch(url, **options)` and `post(url, **options)` hand their
# options on to `perform(method, url, **options)`, which hands them to `Client.perform(...,
# on_reply=None, **options)`: the callbacks passed at the outer calls reach the parameter
# `on_reply` two functions further, and `retry`, left in `**options`, one more
# (`Client.deliver` reads it with `options.get`). `deliver` names `on_reply` itself, so
# what `Client.perform` hands on under `**options` never holds it: only the direct call
# gives it one.
import client


def log_reply(reply):
    return reply


def check_post(reply):
    return reply


def backoff(prepared):
    return prepared


def mark_sent(prepared):
    return prepared


client.fetch("u", on_reply={"reply": [log_reply]}, retry=backoff)
client.post("v", {"k": 1}, on_reply={"reply": [check_post]})
client.Client().deliver("w", on_reply={"sent": [mark_sent]})
