// Jest runs TypeScript and the ESM-only packages (NestJS 12, jose 6, marked) through SWC, compiled to CommonJS.
/** @type {import('jest').Config} */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2023',
    },
    module: { type: 'commonjs' },
  },
];
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@electric-sql|jose|marked)/)'],
  moduleNameMapper: {
    '^@bismarck/(rules|solver|bots|notation|event-store|database|match|projections|client|audit|players|ratings)$': '<rootDir>/libs/$1/src/index.ts',
    '^@bismarck/api$': '<rootDir>/apps/api/src/index.ts',
  },
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
};
