const make = require('./make');
const util = require('./util');

make();
util.log();
