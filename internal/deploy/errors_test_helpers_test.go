package deploy

import "errors"

func asDeployError(err error, target **DeployError) bool { return errors.As(err, target) }
