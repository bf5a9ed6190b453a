/* Imports nothing: the Desk takes it as a value, and a contract module that imports zod would
   bring zod's eval probe into the page, which its Content-Security-Policy reports. */

/** What a row of a call the assistant made says of it (the Desk's lists), and what History's text filter finds it by. */
export const BY_THE_ASSISTANT = 'by the Assistant';
