/** Makes those answers available to `check`. */
export function provideCheckedAnswers(): void;
