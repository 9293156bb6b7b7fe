const double = (x: number) => x * 2;
const run = () => double(3);

run();
