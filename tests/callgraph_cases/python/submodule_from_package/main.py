from pkg import sub

sub.func()
