import { describeIsPause } from '../../testing/describe-is-pause';
import { langGraphFlavor } from './index';

/** Every span up to a LangGraph run records the tool's GraphInterrupt: classification tells the pause without parsing its repr. */
describeIsPause({ runtime: 'langgraph', flavor: langGraphFlavor });
