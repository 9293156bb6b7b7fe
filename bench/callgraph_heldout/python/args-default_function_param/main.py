# shutil.copytree(..., copy_function=copy2): a function as a parameter default, called in the body
def copy_plain(src, dst):
    return dst + [src]


def copy_with_meta(src, dst):
    out = copy_plain(src, dst)
    return out + ["meta"]


def copy_tree(items, copy_function=copy_with_meta):
    dst = []
    for item in items:
        dst = copy_function(item, dst)
    return dst


def main():
    copy_tree(["a"])
    copy_tree(["b"], copy_function=copy_plain)


main()
