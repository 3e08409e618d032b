/** Where the service serves the console; every page's URL starts with it. */
export const CONSOLE_BASE = '/console';
