// For the type checker only: the service serves @fluent/bundle's own ES modules under this folder
// (apps/api/src/web/pages/pages.controller.ts), so the browser imports them as './fluent/index.js'.
export * from '@fluent/bundle';
