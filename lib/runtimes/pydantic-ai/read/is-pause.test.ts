import { describeIsPause } from '../../testing/describe-is-pause';
import { pydanticAiFlavor } from './index';

/** Classification tells a Pydantic AI deferral by its name, without parsing the deferral's metadata. */
describeIsPause({ runtime: 'pydantic-ai', flavor: pydanticAiFlavor });
