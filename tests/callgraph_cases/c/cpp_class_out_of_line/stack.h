#ifndef STACK_H
#define STACK_H

class IntStack {
public:
    explicit IntStack(int capacity);
    ~IntStack();
    void push(int v);
    int size() const { return count(); }

private:
    int count() const { return n_; }
    void grow();
    int *data_;
    int cap_;
    int n_;
};

#endif
