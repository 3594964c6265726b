// readStdin: the whole payload, or "" when the host holds the pipe open without
// writing; rejects when the host goes quiet mid-payload.
import { callNative } from '../native.mjs'

export async function readStdin() {
  return callNative('readStdin')
}
