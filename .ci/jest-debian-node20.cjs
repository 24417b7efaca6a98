// Preloaded (NODE_OPTIONS=--require) when Debian's `jest` package runs on a Node that is not
// Debian's (NodeSource's Node 20 here): Debian patches jest-config to read its module folders from
// process.config.variables.node_relative_path, which only Debian's Node build defines. This adds
// Debian's value; nothing else changes. Used by the tests that run real Jest (see .ci/run).
'use strict';
const original = process.config;
if (original?.variables && original.variables.node_relative_path === undefined) {
  Object.defineProperty(process, 'config', {
    configurable: true,
    value: Object.freeze({
      ...original,
      variables: Object.freeze({
        ...original.variables,
        node_prefix: '/usr',
        node_relative_path: 'lib/x86_64-linux-gnu/nodejs:share/nodejs:lib/nodejs',
      }),
    }),
  });
}
