// The rejection of a call under test, for asserting on what the caller is
// told: its code, message and details (field errors, for validation refusals).

export interface CallFailure<Details = Record<string, any>> {
  code: string;
  message: string;
  details: Details;
}

/** Resolves with the error `call` rejects with; throws when the call succeeds instead. */
export async function failureOf<Details = Record<string, any>>(call: Promise<unknown>): Promise<CallFailure<Details>> {
  try {
    await call;
  } catch (error) {
    return error as CallFailure<Details>;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
