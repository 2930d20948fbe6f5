package atomicfile

import "os"

// createNamed makes a hidden temporary file beside base.
func createNamed(dir, base string) (*os.File, string, error) {
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, "", err
	}
	return f, f.Name(), nil
}
