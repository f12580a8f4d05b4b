package pipeline

// ErrText is err's message, "" for nil: how errors enter fingerprints and
// reason columns.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
