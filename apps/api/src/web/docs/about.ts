// What both contracts, the OpenAPI document (bootstrap.ts) and the AsyncAPI one (asyncapi.ts), say
// about the service itself: one place, so the two cannot drift apart.

/** The project publishes no address or URL to reach it; a made-up one would send readers nowhere. */
export const CONTACT = { name: 'Bismarck maintainers' } as const;

export const LICENSE = { name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' } as const;
