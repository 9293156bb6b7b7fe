const tools = require('./tools');
const { helper } = require('./tools');

tools.run();
helper();
