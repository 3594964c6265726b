// Which host runs this hook, judged from its environment variables.
import { callNative } from '../native.mjs'

export const detectPlatformFromEnv = () => callNative('detectPlatformFromEnv')
