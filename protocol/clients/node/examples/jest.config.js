// Runs this example under real Jest from the repository: `@authbridge/client` resolves to the
// client next door, as `npm install --save-dev @authbridge/client` makes it resolve in an app.
module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.spec.js', '<rootDir>/*.spec.ts'],
  // TypeScript specs the way an app without ts-jest runs them: Babel strips the types.
  transform: {
    '\\.ts$': ['babel-jest', { presets: [['@babel/preset-env', { targets: { node: 'current' } }], '@babel/preset-typescript'] }],
  },
  setupFilesAfterEnv: ['<rootDir>/jest.setup.js'],
  moduleNameMapper: {
    '^@authbridge/client$': '<rootDir>/../index.cjs',
    '^@authbridge/client/jest$': '<rootDir>/../jest.cjs',
  },
};
